import Testing

@testable import LinkPeekServer

/// Tier 1: the queue between the reader thread and the server's loop keeps
/// order, hands elements to a waiting consumer, and ends after `finish`.
@Suite struct EventInboxTests {
    actor Consumer {
        func drain(_ inbox: EventInbox<Int>) async -> [Int] {
            var seen: [Int] = []
            while let element = await inbox.next() { seen.append(element) }
            return seen
        }
    }

    @Test func deliversInOrderThenEnds() async {
        let inbox = EventInbox<Int>()
        for value in 0..<3 { inbox.yield(value) }
        let consumer = Task { await Consumer().drain(inbox) }
        for value in 3..<2000 {
            inbox.yield(value)
            if value % 100 == 0 { try? await Task.sleep(for: .milliseconds(1)) }
        }
        inbox.finish()
        inbox.yield(-1)  // dropped: finished
        #expect(await consumer.value == Array(0..<2000))
    }

    @Test func aWaitingConsumerIsWokenByFinish() async {
        let inbox = EventInbox<Int>()
        let consumer = Task { await Consumer().drain(inbox) }
        try? await Task.sleep(for: .milliseconds(20))
        inbox.finish()
        #expect(await consumer.value == [])
    }
}
