"""The Streamlit views of the toolsearch inspector: the only part of the package that imports Streamlit.

What belongs here: the frame and router (``router``: page setup, the shared sidebar, navigation),
one view script per page (``overview``, ``model_view``, ``search``, ``costs``, ``tuning``,
``live``, ``cache_diff``, ``quality``, ``strategies``, ``scopes``, ``sessions``, ``report``: run
as page scripts, not imported for their effects), the pieces they share (``common``: the sidebar,
its URL state and the View, re-exporting the rest; ``text``: literal text and numbers; ``styles``:
CSS and state cells; ``cache``: cached engine objects and figures; ``origin``: where the browser
connects from; ``sources``: catalog source labels; ``plan_blocks``: tier bar, steps and server
tables; ``scope_sidebar``; ``tables``: literal-text tables; ``preview``: an HTML document in a
sandboxed frame; ``picker``, ``schema_form``,
``signals``, ``textdiff``), the favicon, and the installed app's main script (``entry/app.py``,
which ``toolsearch app`` serves through ``launch``: the Streamlit options checked, then
``streamlit run``). Views render what the layers below compute (the figures come from
``toolsearch.analysis.charts``); no engine logic.

May import: ``toolsearch.engine``, ``toolsearch.analysis``, ``toolsearch.live``, the command
line's argument types (``toolsearch.cli.textfmt``), Streamlit and plotly; nothing in the other
layers imports this package (``toolsearch app`` starts Streamlit on ``entry/app.py`` by its path).
"""
