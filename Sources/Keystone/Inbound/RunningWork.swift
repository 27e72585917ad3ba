// RunningWork.swift — a running call of the page's, as the hub cancels it.
/// A running call of the page's: its task and the cancellation its context reads.
struct RunningWork: Sendable {
    var task: Task<Void, Never>
    var cancellation: CallCancellation

    func cancel() {
        cancellation.cancel()
        task.cancel()
    }
}
