"""Accounts: sign-up and token log-in for the API, rate-limited log-in for the site's pages."""
from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpResponse
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import validated
from config.ratelimit import LoginThrottle, SignupThrottle, client_ip, hit
from league.services.profiles import preferred_language

User = get_user_model()


class SignupSerializer(serializers.Serializer):
    username = serializers.RegexField(r"^[\w.@+-]+\Z", max_length=150)
    password = serializers.CharField(write_only=True, max_length=128)
    email = serializers.EmailField()

    def validate_username(self, value: str) -> str:
        if User.objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError(_("This username is already taken."))
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
        user = User.objects.create_user(data["username"], data["email"], data["password"])
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
    """The site's log-in page, sharing the API's per-IP log-in limit."""

    def post(self, request, *args, **kwargs):
        if not hit("login", client_ip(request)):
            return HttpResponse(_("Too many attempts; wait a minute."), status=429)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        # The account's language wins over the browser's from now on (cookie, as set_language).
        response = super().form_valid(form)
        return apply_language(response, preferred_language(form.get_user()))
