"""English as it is read here: day before month and a 24-hour clock ("28/11/2026 02:13"),
not Django's American defaults ("11/28/2026 2:13 a.m.")."""
DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
FIRST_DAY_OF_WEEK = 1  # Monday
DATE_INPUT_FORMATS = ["%d/%m/%Y", "%d/%m/%y", "%Y-%m-%d", "%d %b %Y", "%d %B %Y"]
DATETIME_INPUT_FORMATS = ["%d/%m/%Y %H:%M:%S", "%d/%m/%Y %H:%M", "%d/%m/%y %H:%M",
                          "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M"]
TIME_INPUT_FORMATS = ["%H:%M:%S", "%H:%M"]
