from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from accounts import signals
        from accounts.usernames import username_validator_install

        signals.connect()
        username_validator_install()
