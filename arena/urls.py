from django.urls import path

from arena import views

app_name = "arena"
urlpatterns = [
    path("", views.comparison_list, name="comparison_list"),
    path("new/", views.comparison_new, name="comparison_new"),
    path("<int:comparison_id>/", views.comparison_page, name="comparison"),
    path("<int:comparison_id>/judge/", views.comparison_judge, name="comparison_judge"),
    path("<int:comparison_id>/export.<str:fmt>", views.comparison_export, name="comparison_export"),
    path("<int:comparison_id>/vote/", views.vote_page, name="vote"),
]
