from django.apps import AppConfig


class AgentbenchConfig(AppConfig):
    name = "agentbench"
    verbose_name = "Legal agent tasks"
