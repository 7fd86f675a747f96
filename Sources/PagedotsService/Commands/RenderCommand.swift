import Glibc
import PagedotsCore

/// `pagedots render QUERY [-o FILE]`: one image, the bytes the server would send.
enum RenderCommand {
    static func run(_ arguments: [String]) -> Int32 {
        var target: String?
        var output: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "-o" || argument == "--output" {
                guard index + 1 < arguments.count else { return PagedotsCommand.fail("\(argument) needs a file name") }
                output = arguments[index + 1]
                index += 2
            } else if target == nil {
                target = argument
                index += 1
            } else {
                return PagedotsCommand.fail("render takes one QUERY; got also \"\(argument)\"")
            }
        }
        guard let target else { return PagedotsCommand.fail("render needs a QUERY, like 'pages=5&current=2'") }
        let (path, query) = IndicatorQuery.split(target: Substring(target))
        let request: IndicatorRequest
        do {
            guard let options = try IndicatorQuery.pathOptions(forPath: path) else {
                return PagedotsCommand.fail("not an image path: \(path)")
            }
            request = try IndicatorQuery.parse(query: query, options: options)
        } catch {
            return PagedotsCommand.fail(error.description)
        }
        if !request.ignoredParameters.isEmpty {
            writeError("pagedots: ignored parameters: \(request.ignoredParameters.joined(separator: ", "))\n")
        }
        let image = ImageMaker().makeImage(for: request.spec)
        guard let output else {
            return writeAll(image.bytes, to: STDOUT_FILENO) ? 0 : PagedotsCommand.fail("cannot write to standard output")
        }
        let file = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard file >= 0 else { return PagedotsCommand.fail("cannot write \(output): \(String(cString: strerror(errno)))") }
        defer { close(file) }
        return writeAll(image.bytes, to: file) ? 0 : PagedotsCommand.fail("cannot write \(output): \(String(cString: strerror(errno)))")
    }
}
