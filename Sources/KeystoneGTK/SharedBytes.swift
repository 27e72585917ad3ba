// SharedBytes.swift — the memory Swift's bytes cross to the web process in: one region, reused while
// it is the host's, and a sealed file of their own while it is lent.
#if canImport(CWebKitGTK)
import CWebKitGTK
import Foundation

/// Where the GTK host puts Swift's bytes for its web-process extension.
///
/// One region, a memory file sealed against shrinking (so no truncation can fault the extension's
/// mapping of it), mapped here and written in place, is lent to the extension for one transfer at a
/// time: it is the host's again only once the extension has answered that it copied the bytes out
/// (``returned()``), so nothing rewrites memory the extension is still reading. A transfer that finds
/// it lent waits for it when the region holds it already (requests in a row, each made once the
/// one before arrived, find the region lent until its answer comes); one that would grow a lent
/// region, or is larger than ``regionLimit``, goes in a memory file of its own, sealed against
/// every change. Used on the main loop's thread only.
final class SharedBytes {
    /// The largest transfer the region grows to hold; it is kept as long as the host.
    static let regionLimit = 64 << 20

    private var memory: Int32 = -1
    private var mapped: UnsafeMutableRawPointer?
    private var capacity = 0
    /// Whether the region is the extension's, until it answers.
    private var isLent = false
    /// Transfers that wait for the region, which holds them without growing: each goes once the
    /// extension has answered for the one before.
    private var waiting: [(request: String, document: UInt64, bytes: Data)] = []

    /// What to do with one transfer's bytes.
    enum Handing {
        /// Send this descriptor, the transfer's to close: the lent region, or a sealed file of its own.
        case send(descriptor: Int32, isRegion: Bool)
        /// The transfer waits for the region (``returned()`` hands it on).
        case waiting
        /// No memory could be had.
        case failed
    }

    /// Where `bytes`, for the relay's `request` in the subframe document `document` (0: the main
    /// frame), go: into the region when it is the host's, after the transfer it is lent for when
    /// it holds them already, else a sealed file of their own.
    func hand(_ bytes: Data, for request: String, document: UInt64) -> Handing {
        if isLent, bytes.count <= capacity {
            waiting.append((request, document, bytes))
            return .waiting
        }
        if !isLent, bytes.count <= Self.regionLimit, let descriptor = lend(holding: bytes) { return .send(descriptor: descriptor, isRegion: true) }
        return Self.sealedFile(holding: bytes).map { .send(descriptor: $0, isRegion: false) } ?? .failed
    }

    /// The extension has copied the bytes out of the region, or will not: the next waiting
    /// transfer, now in the region (its descriptor `nil` when it could not be had).
    func returned() -> (request: String, document: UInt64, size: Int, descriptor: Int32?)? {
        isLent = false
        guard !waiting.isEmpty else { return nil }
        let (request, document, bytes) = waiting.removeFirst()
        return (request, document, bytes.count, lend(holding: bytes))
    }

    /// The page is gone: transfers that wait for it go nowhere.
    func dropWaiting() {
        waiting.removeAll()
    }

    /// The region holding `bytes`, lent: a descriptor of it for this transfer.
    private func lend(holding bytes: Data) -> Int32? {
        guard let region = region(holding: bytes.count) else { return nil }
        bytes.withUnsafeBytes { if let base = $0.baseAddress { region.copyMemory(from: base, byteCount: $0.count) } }
        let descriptor = dup(memory)
        guard descriptor >= 0 else { return nil }
        isLent = true
        return descriptor
    }

    /// The region, grown (never shrunk) to hold `count` bytes and mapped here.
    private func region(holding count: Int) -> UnsafeMutableRawPointer? {
        if memory < 0 {
            memory = memfd_create("keystone-bytes", KS_MFD_CLOEXEC | KS_MFD_ALLOW_SEALING)
            guard memory >= 0, fcntl(memory, KS_F_ADD_SEALS, KS_F_SEAL_SHRINK) == 0 else { return release() }
        }
        if count > capacity || mapped == nil {
            // Grown in whole MiB, so a run of sizes does not remap each time.
            let size = max(1 << 20, (count + (1 << 20) - 1) & ~((1 << 20) - 1))
            if let mapped { munmap(mapped, capacity) }
            mapped = nil
            guard ftruncate(memory, off_t(size)) == 0, let region = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, memory, 0), region != MAP_FAILED
            else { return release() }
            (mapped, capacity) = (region, size)
        }
        return mapped
    }

    private func release() -> UnsafeMutableRawPointer? {
        if let mapped { munmap(mapped, capacity) }
        if memory >= 0 { close(memory) }
        (memory, mapped, capacity) = (-1, nil, 0)
        return nil
    }

    deinit {
        _ = release()
    }

    /// A new memory file holding `bytes`, sealed so that it can neither shrink, grow nor change.
    private static func sealedFile(holding bytes: Data) -> Int32? {
        let memory = memfd_create("keystone-bytes", KS_MFD_CLOEXEC | KS_MFD_ALLOW_SEALING)
        guard memory >= 0 else { return nil }
        let written = bytes.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let count = write(memory, raw.baseAddress! + offset, raw.count - offset)
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        guard written, fcntl(memory, KS_F_ADD_SEALS, KS_F_SEAL_SHRINK | KS_F_SEAL_GROW | KS_F_SEAL_WRITE | KS_F_SEAL_SEAL) == 0 else {
            close(memory)
            return nil
        }
        return memory
    }
}
#endif
