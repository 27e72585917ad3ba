// InboundHub.swift — what the page's calls need from the hub's state.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The events the page's calls send the hub: the hub keeps the page load, its documents and the
/// running calls behind its one lock, and acts on what each event leaves once it is released.
protocol InboundHub: PageOutbox {
    /// The page load scripts may run in now: the one a traced call is of.
    var pageLoad: PageLoad { get }
    /// What a call of `name` from `frame` is admitted against, read in one step.
    func admission(of name: MethodName, from frame: CallerFrame, isAsynchronous: Bool, speaksKeystone: Bool) -> InboundAdmission
    /// A call came from `frame`, a subframe whose document the host delivers to: the page load
    /// reaches that document from now on, unless it already reaches as many as it may.
    func enter(_ frame: CallerFrame, document: FrameDocument) -> BridgeError?
    /// A call from `frame` spoke as only Keystone's runtime does: its document's results go to that
    /// runtime from now on.
    func heardKeystoneRuntime(from frame: CallerFrame)
    /// Records a call of the page's about to run in a task for `pageLoad`, whose answer takes a
    /// single result offered on `answeringThread` (`nil`: none): its token, and the method of a call
    /// still running under the same callback, or the refusal.
    func startTask(callback: PageCallback?, method: MethodName, for pageLoad: PageLoad, answeringThread: UInt?)
        -> Result<RunningCalls<RunningWork>.Started, BridgeError>
    /// Sends one result of the running call `token` (`isFinal`: its last) as `message` (none: the
    /// page made the call without a callback), its value's parts beside it, to `pageLoad` and its
    /// document `frame`, in one step with the call's state; `false`, sending nothing, when the call
    /// has finished already or is no longer kept.
    func sendResult(
        token: Int, isFinal: Bool, _ message: PageMessage?, parts: ByteParts?, of call: CallParts?, to pageLoad: PageLoad, frame: FrameDocument?
    ) -> Bool
    /// The running call `token`'s single result, ready on `thread`: into its answer when that takes
    /// it (`true`), otherwise to `callback` in `pageLoad` unless the call has finished.
    func routeSingleResult(_ result: SingleResult, token: Int, thread: UInt, callback: PageCallback?, pageLoad: PageLoad) -> Bool

    /// The task for `token` exists now, and the call's answer is being written: the single result
    /// the answer carries, if its state took one. The work is cancelled at once when the call is no
    /// longer wanted (cancelled by the page, or its page has gone).
    func taskCreated(token: Int, work: RunningWork) -> SingleResult?
    func taskFinished(token: Int)
}

/// What a call is admitted against: the page load it was made in, what its frame may rely on of
/// what that page load established, whether it runs durably by default, and whether its document
/// is known to run Keystone's runtime.
struct InboundAdmission {
    /// Whether the frame's origin is admitted at all (once a host serves the app's own pages, only
    /// theirs is, unless the app's policy lists origins).
    var admitsOrigin: Bool
    var pageLoad: PageLoad
    var access: PageAccess
    var isDurableByDefault: Bool
    var knowsRuntime: Bool
}
