"""Streamlit pages of the toolsearch inspector (each renders one view; no engine logic here)."""
