from django.urls import path

from scoring import views

app_name = "scoring"
urlpatterns = [
    path("trials/<int:trial_id>/scorecard/", views.trial_scorecard, name="trial_scorecard"),
    path("scorecards/", views.my_scorecards, name="my_scorecards"),
    path("scoring/models/", views.model_profile_page, name="model_profile"),
]
