from django.urls import path

from trials import views

app_name = "trials"
urlpatterns = [
    path("", views.case_library, name="case_library"),
    path("cases/<str:case_id>/", views.case_detail, name="case_detail"),
]
