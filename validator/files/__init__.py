"""Files shared by every stage that reads them: guards for untrusted archives and sheets
(``safety``) and CSV/XLSX read as grids of text (``tabular``)."""
