from django.urls import path

from accounts import views

app_name = "accounts"
urlpatterns = [path("language/", views.language_choose, name="language_choose")]
