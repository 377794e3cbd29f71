"""The installed app's main script (``app.py``), alone in its folder: Streamlit puts the main
script's folder on ``sys.path``, and this one holds no module a library could mistake for its own."""
