// OutgoingMessage.swift — a message on its way to the page, with what goes beside it.
import KeystoneEvaluator
@_spi(KeystoneInternal) import KeystoneInterfaces

/// A message on its way to the page, with the parts of its value, if any, and the call of the
/// page's whose result it is: its parts' ticket is issued to that call's frame, and the call told
/// when they are fetched.
struct OutgoingMessage: Sendable {
    var message: PageMessage
    var parts: ByteParts?
    var call: CallParts?
}
