"""The case library: what a case is and how one comes in.

``case_file`` is the case file format and its validators (docs/case-format.md);
``maser_format`` and ``simcourt_format`` read MASER's and SimCourt's released cases into it;
``authoring`` and ``authoring_views`` are the instructors' pages that write one in the browser.
"""
