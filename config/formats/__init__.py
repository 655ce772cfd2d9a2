"""Date and number formats per language (FORMAT_MODULE_PATH): Django's own, except where noted."""
