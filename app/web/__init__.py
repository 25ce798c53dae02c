"""The table on the web: a page for phones, the game history, MQTT and the club page."""
