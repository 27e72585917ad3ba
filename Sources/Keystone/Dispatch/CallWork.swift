// CallWork.swift — an asynchronous call's work, decoded and ready to run in a task.
import Foundation

/// An asynchronous call's work, ready to run.
public enum CallWork: Sendable {
    /// Produces one result, as JSON.
    case single(@Sendable () async throws -> Data)
    /// Writes any number of results to the sink, then returns (or throws).
    case multiResponse(@Sendable (ResponseSink) async throws -> Void)
}
