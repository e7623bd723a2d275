"""One module per notification channel; heavy libraries load only inside ``send``."""
