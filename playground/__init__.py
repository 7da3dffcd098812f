"""The balance playground (``playtest serve``): a local web app over the game registry."""
