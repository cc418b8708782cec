"""A person's own account: password change and reset (Django's views, our templates) and the
API tokens a score app uses."""

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from pages import account, connected_apps
from pages.invitations import invitation_received_answer
from pages.password_reset import PasswordResetView

urlpatterns = [
    path("", account.account_page, name="account"),
    path("tokens/", account.token_create, name="token-create-page"),
    path("apps/", connected_apps.apps_page, name="account-apps"),
    path("apps/<int:application_id>/revoke/", connected_apps.app_revoke, name="account-app-revoke"),
    path(
        "invitations/<int:invitation_id>/",
        invitation_received_answer,
        name="invitation-received-answer",
    ),
    path("tokens/<int:token_id>/revoke/", account.token_revoke, name="token-revoke-page"),
    path(
        "password/",
        account.PasswordChangeView.as_view(success_url=reverse_lazy("password_change_done")),
        name="password_change",
    ),
    path(
        "password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"
    ),
    path("password/reset/", PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        account.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
