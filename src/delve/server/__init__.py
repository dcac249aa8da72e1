"""The Django project that turns the game engines into a multiplayer server."""
