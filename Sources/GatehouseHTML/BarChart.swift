/// A bar chart drawn as SVG on the server: one group of bars per bucket (an hour, a day), one
/// bar per series, a scale with round steps, and each bar's value in its `<title>` (what a
/// pointer or a screen reader shows). Colours come from the series' class in the console's
/// style sheet: SVG presentation only, no inline style, so a strict CSP holds.
///
/// ```swift
/// let chart = BarChart(title: "Codes per hour", labels: hours, series: [
///     .init(name: "sent", cssClass: "sent", values: sent),
///     .init(name: "verified", cssClass: "verified", values: verified),
/// ])
/// page += chart.svg()
/// ```
public struct BarChart: Sendable {
    public struct Series: Sendable {
        public let name: String
        public let cssClass: String
        public let values: [Double]
        public init(name: String, cssClass: String, values: [Double]) {
            self.name = name
            self.cssClass = cssClass
            self.values = values
        }
    }

    public let title: String
    public let labels: [String]
    public let series: [Series]
    /// How a value is written on the scale and in titles.
    public let format: @Sendable (Double) -> String
    /// The least step of the scale: 1 for counts; a fraction for amounts.
    public let smallestStep: Double

    public init(
        title: String, labels: [String], series: [Series], format: @escaping @Sendable (Double) -> String = BarChart.whole, smallestStep: Double = 1
    ) {
        self.title = title
        self.labels = labels
        self.series = series
        self.format = format
        self.smallestStep = smallestStep
    }

    public static let whole: @Sendable (Double) -> String = { String(Int(value: $0)) }

    public func svg(width: Int = 720, height: Int = 220) -> HTML {
        let (left, right, top, bottom) = (48.0, 8.0, 12.0, 36.0)
        let plotWidth = Double(width) - left - right
        let plotHeight = Double(height) - top - bottom
        let peak = series.flatMap(\.values).max() ?? 0
        let scale = Self.scale(peak, smallest: smallestStep)
        var parts: [HTML] = []
        for step in 0...4 {
            let value = scale * Double(step) / 4
            let y = top + plotHeight - plotHeight * Double(step) / 4
            parts.append("<line class=\"grid\" x1=\"\(Self.number(left))\" x2=\"\(Self.number(left + plotWidth))\" y1=\"\(Self.number(y))\" y2=\"\(Self.number(y))\"/>")
            parts.append("<text class=\"scale\" x=\"\(Self.number(left - 6))\" y=\"\(Self.number(y + 4))\" text-anchor=\"end\">\(format(value))</text>")
        }
        let buckets = max(labels.count, 1)
        let slot = plotWidth / Double(buckets)
        let barWidth = max(slot * 0.8 / Double(max(series.count, 1)), 1)
        let labelEvery = max(1, Int((Double(buckets) / 12).rounded(.up)))
        for (index, label) in labels.enumerated() {
            let x = left + slot * Double(index) + slot * 0.1
            for (number, one) in series.enumerated() {
                let value = index < one.values.count ? one.values[index] : 0
                let barHeight = scale > 0 ? plotHeight * value / scale : 0
                parts.append("""
                    <rect class="\(one.cssClass)" x="\(Self.number(x + barWidth * Double(number)))" y="\(Self.number(top + plotHeight - barHeight))" \
                    width="\(Self.number(barWidth))" height="\(Self.number(barHeight))"><title>\(label) · \(one.name): \(format(value))</title></rect>
                    """)
            }
            if index % labelEvery == 0 {
                parts.append("<text class=\"label\" x=\"\(Self.number(x + slot * 0.4))\" y=\"\(Self.number(top + plotHeight + 16))\" text-anchor=\"middle\">\(label)</text>")
            }
        }
        for (number, one) in series.enumerated() {
            let x = left + Double(number) * 120
            parts.append("<rect class=\"\(one.cssClass)\" x=\"\(Self.number(x))\" y=\"\(Self.number(Double(height) - 12))\" width=\"10\" height=\"10\"/>")
            parts.append("<text class=\"legend\" x=\"\(Self.number(x + 14))\" y=\"\(Self.number(Double(height) - 3))\">\(one.name)</text>")
        }
        return """
            <svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(width) \(height)" role="img" aria-label="\(title)">\
            <title>\(title)</title>\(parts)</svg>
            """
    }

    /// The top of the scale: four steps of 1, 2 or 5 times a power of ten that reach the peak,
    /// each step at least `smallest` (1 for counts, so that no two labels of the scale read alike).
    static func scale(_ peak: Double, smallest: Double = 1) -> Double {
        let wanted = max(peak / 4, smallest)
        var power = 1.0
        while power * 10 <= wanted { power *= 10 }
        while power > wanted { power /= 10 }
        for step in [1.0, 2.0, 5.0, 10.0] where power * step >= wanted { return power * step * 4 }
        return power * 40
    }

    /// A coordinate with at most one decimal: short markup, the same on every machine.
    static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : String(Double(tenths) / 10)
    }
}

extension Int {
    /// The value rounded, or 0 for what no Int holds.
    init(value: Double) {
        self = value.isFinite && abs(value) < 9e18 ? Int(value.rounded()) : 0
    }
}

extension HTML {
    /// A thin bar that shows a share (a conversion rate) beside its number.
    public static func meter(_ fraction: Double, label: String) -> HTML {
        let share = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        return """
            <svg class="meter" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 8" role="img" aria-label="\(label)">\
            <rect class="track" x="0" y="0" width="100" height="8"/><rect class="fill" x="0" y="0" width="\(BarChart.number(share * 100))" height="8"/></svg>
            """
    }
}
