"""toolsearch inspector: entry point and router.

Run with ``streamlit run app.py``. The sidebar (shared by every page) picks the catalog and the
settings; each page in ``pages/`` renders one view of what the engine computes.
"""

import streamlit as st

from pages import common

st.set_page_config(page_title="toolsearch inspector", page_icon=":material/search:", layout="wide")

PAGES = [
    st.Page("pages/overview.py", title="Overview", icon=":material/dashboard:", default=True, url_path="overview"),
    st.Page("pages/model_view.py", title="What the model sees", icon=":material/visibility:", url_path="model"),
    st.Page("pages/search.py", title="Search", icon=":material/search:", url_path="search"),
    st.Page("pages/costs.py", title="Costs", icon=":material/payments:", url_path="costs"),
    st.Page("pages/tuning.py", title="Tuning", icon=":material/tune:", url_path="tuning"),
    st.Page("pages/live.py", title="Live servers", icon=":material/cable:", url_path="live-servers"),
    st.Page("pages/report.py", title="Report", icon=":material/description:", url_path="report"),
]

navigation = st.navigation(PAGES)
st.session_state["_view"] = common.sidebar()
try:
    navigation.run()
finally:
    # The view belongs to this run only; a page run on its own renders the sidebar itself.
    st.session_state.pop("_view", None)
