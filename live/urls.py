from django.urls import path

from live.views import capacity, stream

urlpatterns = [
    path("live/stream/", stream, name="live-stream"),
    path("live/health/", capacity, name="live-health"),
]
