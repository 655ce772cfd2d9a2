"""Accounts: sign-up and token log-in for the API, rate-limited log-in for the site's pages."""
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.exceptions import Throttled
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.login_limits import account_locked, locked_message
from accounts.profiles import preferred_language
from config.api_errors import validated
from config.ratelimit import LoginThrottle, SignupThrottle, client_ip, hit
from config.refusals import Refusal

User = get_user_model()


class UsernameTaken(Refusal):
    """Another account has this username, in any case (the database refused the insert)."""

    status = 409

    def __init__(self, username: str) -> None:
        super().__init__(username_taken_message(), "username_taken", username=username)


def username_taken_message() -> str:
    return _("This username is already taken.")


def create_account(username: str, email: str, password: str | None) -> Any:
    """The new account. The callers check the name first (a friendly field error); the unique
    index on lower(username) (migration league 0007) settles the race between two sign-ups."""
    try:
        with transaction.atomic():
            return User.objects.create_user(username, email, password)
    except IntegrityError as exc:  # the only unique columns of auth_user are its username's
        raise UsernameTaken(username) from exc


class SignupSerializer(serializers.Serializer):
    username = serializers.RegexField(r"^[\w.@+-]+\Z", max_length=150)
    password = serializers.CharField(write_only=True, max_length=128)
    email = serializers.EmailField()

    def validate_username(self, value: str) -> str:
        if User.objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError(username_taken_message())
        return value

    def validate(self, attrs: dict) -> dict:
        candidate = User(username=attrs["username"], email=attrs["email"])
        try:
            password_validation.validate_password(attrs["password"], candidate)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from exc
        return attrs


class SignupView(APIView):
    """POST /api/v1/accounts/: create an account."""

    throttle_classes = [SignupThrottle]
    authentication_classes: list = []

    @extend_schema(
        request=SignupSerializer,
        responses={201: inline_serializer("SignupDone", {"username": serializers.CharField()})},
    )
    def post(self, request):
        data = validated(SignupSerializer, request)
        try:
            user = create_account(data["username"], data["email"], data["password"])
        except UsernameTaken:
            raise serializers.ValidationError({"username": [username_taken_message()]}) from None
        return Response({"username": user.username}, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    """POST /api/v1/auth/token/: exchange a username and password for a token."""

    throttle_classes = [LoginThrottle]
    authentication_classes: list = []

    @extend_schema(
        request=AuthTokenSerializer,
        responses={200: inline_serializer("TokenDone", {"token": serializers.CharField()})},
    )
    def post(self, request):
        # A locked account gets a 429 rather than the 400 its refused log-in would give.
        if isinstance(request.data, Mapping) and account_locked(request.data.get("username")):
            raise Throttled(detail=locked_message())
        serializer = AuthTokenSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        token, _created = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})


def apply_language(response: HttpResponse, language: str) -> HttpResponse:
    """Activate ``language`` and keep it in the cookie set_language uses; "" changes nothing."""
    if language:
        translation.activate(language)
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response


class RateLimitedLoginView(LoginView):
    """The site's log-in page, sharing the API's limits: per client address, and per account
    on failures (accounts.login_limits). Over either, the form comes back with a 429."""

    def post(self, request, *args, **kwargs):
        if not hit("login", client_ip(request)):
            return self.refused(_("Too many attempts; wait a minute."))
        if account_locked(request.POST.get("username")):
            return self.refused(locked_message())
        return super().post(request, *args, **kwargs)

    def refused(self, message: str) -> HttpResponse:
        # An unbound form: validating it would try the password, which is the point to avoid.
        form = self.get_form_class()(self.request, initial={
            "username": self.request.POST.get("username", "")})
        context = self.get_context_data(form=form, refusal=message)
        return self.render_to_response(context, status=429)

    def form_valid(self, form):
        # The account's language wins over the browser's from now on (cookie, as set_language).
        response = super().form_valid(form)
        return apply_language(response, preferred_language(form.get_user()))
