"""The site's pages."""
from django.contrib.auth import views as auth_views
from django.contrib.auth.views import LogoutView
from django.urls import path

from accounts import views as account
from campaigns.views import campaign
from events import views
from venue.views import awards, checkin, invitations, projector

urlpatterns = [
    path("", views.home, name="home"),
    path("login/", account.LandingLoginView.as_view(), name="login"),
    path("logout/", LogoutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("tournaments/<slug:slug>/", views.tournament, name="tournament"),
    path("tournaments/<slug:slug>/vote/", awards.vote, name="tournament_vote"),
    path("invitations/<str:token>/", invitations.invitation, name="invitation"),
    path("tournaments/<slug:slug>/projector/", projector.projector, name="projector"),
    path("tournaments/<slug:slug>/projector/state/", projector.projector_state,
         name="projector_state"),
    path("tournaments/<slug:slug>/players/<int:pk>/list/", views.player_list, name="player_list"),
    path("tournaments/<slug:slug>/check-in/", checkin.self_check_in, name="self_check_in"),
    path("games/<int:pk>/", views.game, name="game"),
    path("campaigns/<slug:slug>/", campaign, name="campaign"),
    path("profile/", account.profile, name="profile"),
    path("password-reset/", account.RateLimitedPasswordResetView.as_view(), name="password_reset"),
    path("password-reset/done/", auth_views.PasswordResetDoneView.as_view(),
         name="password_reset_done"),
    path("password-reset/complete/", auth_views.PasswordResetCompleteView.as_view(),
         name="password_reset_complete"),
    path("password-reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    # Own template names: the admin keeps its own password-change pages.
    path("password-change/", auth_views.PasswordChangeView.as_view(
        template_name="registration/account_password_change_form.html"), name="password_change"),
    path("password-change/done/", auth_views.PasswordChangeDoneView.as_view(
        template_name="registration/account_password_change_done.html"),
        name="password_change_done"),
    # Django's set_language, plus the account remembering the choice.
    path("i18n/setlang/", account.set_language, name="set_language"),
]
