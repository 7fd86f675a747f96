/// The HTML page served at `/`.
enum BuilderPage {
    static let html = """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><title>pagedots</title></head>
    <body><h1>pagedots</h1><p><img src="/indicator?pages=5&amp;current=2&amp;scale=2" width="88" height="16" alt="Page 3 of 5"></p></body></html>
    """
}
