"""Writers of Konami deck-list sheets: the XLSX workbook and the fillable PDF."""
