from django.urls import path

from rules.web import api

app_name = "rules"

urlpatterns = [path("rules/evaluate/", api.EvaluateApi.as_view(), name="evaluate")]
