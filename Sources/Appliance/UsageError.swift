/// A command line that cannot be run as given; exits 2 with the message and a pointer to help.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
