/// `pagedots sign QUERY`: prints the query with its signature appended, under
/// the key of `--signing-key` or `PAGEDOTS_SIGNING_KEY`.
enum SignCommand {
    static func run(_ arguments: [String]) -> Int32 {
        guard let target = arguments.first, !target.hasPrefix("--") else {
            return PagedotsCommand.fail("sign needs a QUERY, like 'pages=5&current=2'")
        }
        let configuration: ServiceConfiguration
        switch CommandLineOption.configuration(arguments: Array(arguments.dropFirst())) {
        case .success(let value): configuration = value
        case .failure(let error): return PagedotsCommand.fail(error.message)
        }
        guard let signer = configuration.signer else {
            return PagedotsCommand.fail("sign needs a key: --signing-key KEY or PAGEDOTS_SIGNING_KEY")
        }
        // A path or URL keeps its part before the query; only the query is signed.
        let mark = target.firstIndex(of: "?")
        let prefix = mark.map { String(target[...$0]) } ?? ""
        let query = mark.map { target[target.index(after: $0)...] } ?? Substring(target)
        writeOut(prefix + signer.sign(query) + "\n")
        return 0
    }
}
