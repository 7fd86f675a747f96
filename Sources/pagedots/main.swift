import Glibc
import PagedotsService

exit(PagedotsCommand.run(Array(CommandLine.arguments.dropFirst())))
