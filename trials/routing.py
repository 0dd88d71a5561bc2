from django.urls import path

from trials.consumers import TrialConsumer

websocket_urlpatterns = [path("ws/trials/<int:trial_id>/", TrialConsumer.as_asgi())]
