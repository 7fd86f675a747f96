/// The OpenAPI 3.1 description served at `/openapi.json`.
enum OpenAPIDocument {
    static let json = """
    {"openapi":"3.1.0","info":{"title":"pagedots","version":"\(pagedotsVersion)"},"paths":{}}
    """
}
