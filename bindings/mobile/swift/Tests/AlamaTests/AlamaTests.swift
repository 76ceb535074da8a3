// XCTest of the Swift bindings, for a Mac: `swift test` in bindings/mobile/swift after
// build-xcframework.sh. Written against the generated API but NOT compiled or run on the
// project's Linux CI (no Swift toolchain there); the Kotlin tests are the ones CI runs.
import Foundation
import XCTest
@testable import Alama

final class AlamaTests: XCTestCase {
    let csv = """
    Receipt No,Completion Time,Details,Transaction Status,Paid In,Withdrawn,Balance
    SJK1AB2CD3,2024-05-23 14:02:11,Funds received from 0700000001 - JANE EXAMPLE,Completed,1500.00,,2925.00
    SJK1AB2CD4,2024-05-22 09:15:00,Customer Transfer to 0700000002 - JOHN EXAMPLE,Completed,,-425.00,1425.00
    """

    func testParseAndScore() throws {
        let statement = try parseStatement(bytes: Data(csv.utf8))
        XCTAssertEqual(statement.transactions.count, 2)
        XCTAssertEqual(statement.transactions[0].completedAt, "2024-05-23T14:02:11")
        XCTAssertEqual(statement.transactions[0].paidIn, Decimal(string: "1500.00"))
        let report = try score(statement: statement)
        XCTAssert((300...850).contains(report.score))
        XCTAssertEqual(report.statement.totalPaidIn, Decimal(string: "1500"))
    }

    func testCanonicalJson() throws {
        let json = try scoreStatementJson(bytes: Data(csv.utf8))
        XCTAssert(json.hasPrefix("{\"reportId\":\"rpt_"))
        // Foundation.Decimal drops trailing zeros, so a Report that crossed into Swift may print
        // "1500" where the canonical JSON says "1500.00": compare reports, not their re-encoding.
        XCTAssertEqual(try reportFromJson(json: json), try scoreStatement(bytes: Data(csv.utf8)))
    }

    func testErrors() {
        XCTAssertThrowsError(try parseStatement(bytes: Data([0x89, 0x50, 0x4E, 0x47, 0, 0, 0, 0]))) { error in
            guard let alama = error as? AlamaError, case .UnsupportedFormat = alama else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(errorCode(error: alama), "unsupported_format")
        }
    }

    func testAsync() async throws {
        let data = Data(csv.utf8)
        let report = try await scoreStatementAsync(bytes: data)
        let detached = try await Task.detached(priority: .userInitiated) { try scoreStatement(bytes: data) }.value
        XCTAssertEqual(report, detached)
    }
}
