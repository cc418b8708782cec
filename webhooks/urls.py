from django.urls import path

from webhooks import api

app_name = "webhooks"

base = "clubs/<slug:club_slug>/webhooks/"
one = f"{base}<int:endpoint_id>/"

urlpatterns = [
    path(base, api.EndpointListApi.as_view(), name="webhook-list"),
    path(one, api.EndpointDetailApi.as_view(), name="webhook-detail"),
    path(f"{one}secret/", api.EndpointSecretApi.as_view(), name="webhook-secret"),
    path(f"{one}test/", api.EndpointPingApi.as_view(), name="webhook-ping"),
    path(f"{one}replay/", api.ReplayApi.as_view(), name="webhook-replay"),
    path(f"{one}deliveries/", api.AttemptLogApi.as_view(), name="webhook-deliveries"),
    path(
        f"{one}deliveries/<uuid:delivery_id>/redeliver/",
        api.RedeliverApi.as_view(),
        name="webhook-redeliver",
    ),
]
