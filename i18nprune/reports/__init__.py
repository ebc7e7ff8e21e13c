"""The `report` document as a page, CSV or plain text: pure functions of `ops.report.ReportData`
that return the text to write (no file, no network, nothing fetched by the page)."""
