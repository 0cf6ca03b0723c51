import Foundation
import GatehouseHTML
import Testing

@Suite struct HTMLTests {
    @Test func valuesAreEscapedAndLiteralsAreNot() {
        let name = "<script>alert('x')</script> & \"q\""
        let row: HTML = "<td class=\"n\" title=\"\(name)\">\(name)</td>"
        #expect(row.markup == "<td class=\"n\" title=\"&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;\">"
            + "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;</td>")
    }

    @Test func markupGoesInAsItIs() {
        let inner: HTML = "<b>\("a<b")</b>"
        let outer: HTML = "<p>\(inner)\([inner, inner])</p>"
        #expect(outer.markup == "<p><b>a&lt;b</b><b>a&lt;b</b><b>a&lt;b</b></p>")
    }

    @Test func controlCharactersAreDrawnAndBidiControlsWrittenOut() {
        #expect(HTML.escape("a\u{01}b\u{1B}c\u{7F}d\u{85}") == "a\u{2401}b\u{241B}c\u{2421}dU+0085")
        #expect(HTML.escape("tab\tline\nreturn\r") == "tab\tline\nreturn\u{240D}")
        #expect(HTML.escape("abc\u{202E}cba\u{200F}\u{2067}") == "abc[U+202E]cba[U+200F][U+2067]")
        #expect(HTML.escape("café 東京 🙂") == "café 東京 🙂")
        #expect(HTML.escape("plain text 123") == "plain text 123")
    }

    @Test func escapingIsLinearAndTotal() {
        let long = String(repeating: "<\u{202E}&", count: 100_000)
        #expect(HTML.escape(long).count == 100_000 * (4 + 8 + 5))
    }
}

@Suite struct BarChartTests {
    @Test func scalesRoundUpToOneTwoOrFive() {
        #expect(BarChart(title: "", labels: [], series: []).svg().markup.contains("<title></title>"))
        let chart = BarChart(title: "Codes <per> hour", labels: ["00:00", "01:00"], series: [
            .init(name: "sent", cssClass: "sent", values: [30, 170]),
            .init(name: "verified", cssClass: "verified", values: [12, 99]),
        ])
        let svg = chart.svg().markup
        #expect(svg.contains("aria-label=\"Codes &lt;per&gt; hour\""))
        #expect(svg.contains("<title>01:00 · sent: 170</title>"))
        #expect(svg.contains(">200</text>"))
        #expect(!svg.contains("style="))
        #expect(svg.components(separatedBy: "<rect class=\"sent\"").count - 1 == 3)
    }

    /// Four steps that each read differently: a small count gets whole steps, an amount fractions.
    @Test func theScaleNeverRepeatsALabel() {
        let small = BarChart(title: "", labels: ["a"], series: [.init(name: "n", cssClass: "n", values: [1])]).svg().markup
        #expect(["0", "1", "2", "3", "4"].allSatisfy { small.contains("text-anchor=\"end\">\($0)</text>") })
        let amounts = BarChart(title: "", labels: ["a"], series: [.init(name: "n", cssClass: "n", values: [0.1])],
            format: { String(format: "%.2f", $0) }, smallestStep: 0.01).svg().markup
        #expect(["0.00", "0.05", "0.10", "0.15", "0.20"].allSatisfy { amounts.contains(">\($0)</text>") })
    }

    @Test func aMeterIsClamped() {
        #expect(HTML.meter(1.7, label: "x").markup.contains("width=\"100\" height=\"8\"/></svg>"))
        #expect(HTML.meter(.nan, label: "x").markup.contains("class=\"fill\" x=\"0\" y=\"0\" width=\"0\""))
    }
}
