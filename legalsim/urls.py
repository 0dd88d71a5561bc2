from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("accounts/", include("legalsim.accounts_urls")),
    path("i18n/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("rate/", include("annotation.urls")),
    path("arena/", include("arena.urls")),
    path("", include("classroom.urls")),
    path("", include("trials.urls")),
    path("", include("scoring.urls")),
]
