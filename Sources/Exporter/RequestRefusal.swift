import HTTPTypes

/// Why a request was not served: the HTTP status and a sentence a person can act on.
struct RequestRefusal: Error, Sendable {
    let status: HTTPResponse.Status
    let message: String
}
