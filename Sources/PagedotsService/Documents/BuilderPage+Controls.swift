import PagedotsCore

/// The builder's form, made from the parameter table: one control per
/// parameter, grouped, each carrying what the script needs (its name, its
/// default, its kind, and when it is used) in `data-` attributes.
extension BuilderPage {
    /// The fieldsets of the form, in order.
    enum Group: String, CaseIterable {
        case pages = "Pages"
        /// The page from the clock: `start`, `every`, `tz`, and what page that is now.
        case calendar = "Calendar"
        case look = "Look"
        case colors = "Colors"
        case theme = "Theme"
        case geometry = "Geometry"
        case output = "Output"
        /// Shown only while an animated format is chosen (its controls are used by nothing else).
        case animation = "Animation"
        /// A carousel's own parameters (`POST /carousel`): no indicator URL
        /// uses them, so they are in the Carousel section's form, not the builder's.
        case carousel = "Carousel"
    }

    /// Where a parameter's control goes. A new parameter must be placed here.
    static func group(of name: ParameterName) -> Group {
        switch name {
        case .pages, .current: .pages
        case .start, .every, .tz: .calendar
        case .style, .shape, .fill, .stroke, .visible, .progress, .labels: .look
        case .color, .inactive, .bg, .colors: .colors
        case .theme, .darkcolor, .darkinactive, .darkbg: .theme
        case .size, .spacing, .padding, .direction, .width, .height: .geometry
        case .format, .scale: .output
        case .dwell, .transition, .effect, .loop, .fps, .matte: .animation
        case .change, .place, .inset, .backdrop, .fit, .slidesize, .budget: .carousel
        }
    }

    /// Every fieldset: the operator's presets (filled by the script from
    /// `/presets.json`, hidden when there are none), then the table's
    /// parameters by group, the calendar's with the line that says which page
    /// is current now. The script hides a fieldset whose controls are all
    /// unused (the animation's, for a still image). The carousel's own group
    /// is in the Carousel section (`carouselSection`).
    static var controls: String {
        let groups = Group.allCases.filter { $0 != .carousel }.map { group in
            let fields = Parameter.all.filter { Self.group(of: $0.name) == group }.map { field(for: $0) }
            let extra = group == .calendar ? [calendarStatus] : []
            return "<fieldset><legend>\(group.rawValue)</legend>\n\((fields + extra).joined(separator: "\n"))\n</fieldset>"
        }
        return ([presetChoice] + groups).joined(separator: "\n")
    }

    /// The choice of a preset: `preset=NAME` in the URL, the controls set to its values.
    static let presetChoice = """
        <fieldset><legend>Preset</legend>
        <div class="field" hidden><label for="preset-choice">preset</label><select id="preset-choice"><option value="">none</option></select>\
        <small>one of this service's looks (/presets.json): the URL names it and adds only what differs</small></div>
        </fieldset>
        """

    /// Where the script says, for a calendar URL, which page shows now and when that changes.
    static let calendarStatus = #"<p id="calendar-status" class="note" aria-live="polite" hidden></p>"#

    /// One labelled control, in a box that says when the parameter is used.
    static func field(for parameter: Parameter) -> String {
        let name = parameter.name.rawValue
        let initial = initialValues[parameter.name] ?? carouselInitialValues[parameter.name] ?? parameter.defaultText
        var hint = parameter.summary + (parameter.unit.map { " (\($0))" } ?? "")
        // A default in words that the control does not show says itself in the hint.
        if case .derived(let words) = parameter.defaultValue, parameter.placeholder != words { hint += "; by default \(words)" }
        let use = parameter.use
        var box = "data-styles=\"\(use.styles.map(\.rawValue).joined(separator: " "))\""
        if let fill = use.fill { box += " data-fill=\"\(fill.rawValue)\"" }
        if let formats = use.formats { box += " data-formats=\"\(formats.map(\.rawValue).joined(separator: " "))\"" }
        if let themes = use.themes { box += " data-themes=\"\(themes.map(\.rawValue).joined(separator: " "))\"" }
        if let effects = use.effects { box += " data-effects=\"\(effects.map(\.rawValue).joined(separator: " "))\"" }
        let common = "id=\"p-\(name)\" name=\"\(name)\" data-param data-default=\"\(parameter.defaultText.escapedForHTML)\""
        let control: String
        switch parameter.kind {
        case .integer(let range), .multiple(_, let range):
            let step = if case .multiple(let step, _) = parameter.kind { step } else { 1 }
            control = "<input \(common) type=\"number\" inputmode=\"numeric\" min=\"\(range.lowerBound)\" max=\"\(range.upperBound)\" step=\"\(step)\" value=\"\(initial)\"\(parameter.defaultValue == .required ? " required" : "")>"
        case .decimal(let range):
            let bounds = range.map { "min=\"\(Self.number($0.lowerBound))\" max=\"\(Self.number($0.upperBound))\"" } ?? "min=\"0\""
            control = "<input \(common) type=\"number\" inputmode=\"decimal\" \(bounds) step=\"any\" value=\"\(initial)\" placeholder=\"\(parameter.placeholder.escapedForHTML)\">"
        case .choice(let words):
            let options = words.map { "<option value=\"\($0)\"\($0 == initial ? " selected" : "")>\($0)</option>" }.joined()
            control = "<select \(common)>\(options)</select>"
        case .color:
            return colorField(name: name, value: initial, placeholder: parameter.placeholder, hint: hint,
                              defaultText: parameter.defaultText, box: box)
        case .colorList, .textList:
            let colorList = parameter.kind == .textList ? "" : " data-color"
            control = "<input \(common) type=\"text\" data-list\(colorList) value=\"\(initial.escapedForHTML)\" placeholder=\"\(parameter.placeholder.escapedForHTML)\">"
        case .dateTime, .period, .timeZone, .dimensions, .byteCount:
            control = "<input \(common) type=\"text\" spellcheck=\"false\" value=\"\(initial.escapedForHTML)\" placeholder=\"\(parameter.placeholder.escapedForHTML)\">"
        }
        return "<div class=\"field\" \(box)><label for=\"p-\(name)\">\(name)</label>\(control)<small>\(hint.escapedForHTML)</small></div>"
    }

    /// A colour as text (any form the service reads) beside a colour picker that writes into it.
    private static func colorField(name: String, value: String, placeholder: String, hint: String, defaultText: String, box: String) -> String {
        """
        <div class="field color" \(box)><label for="p-\(name)">\(name)</label>\
        <span class="pair"><input id="p-\(name)" name="\(name)" data-param data-color type="text" value="\(value.escapedForHTML)" \
        placeholder="\(placeholder.escapedForHTML)" spellcheck="false" data-default="\(defaultText.escapedForHTML)">\
        <input type="color" data-picker-for="p-\(name)" aria-label="\(name) picker"></span>\
        <small>\(hint.escapedForHTML)</small></div>
        """
    }

    /// `0.5`, `8`: a bound as an HTML attribute writes it.
    private static func number(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}

extension Parameter {
    /// The default as a URL would spell it; empty when there is none to spell.
    var defaultText: String {
        if case .value(let text) = defaultValue { return text }
        return ""
    }

    /// What an empty control means: the default, or an example of what to
    /// write (always for a size or a byte count, whose syntax is their own).
    var placeholder: String {
        switch (defaultValue, kind) {
        case (.required, _): "required"
        case (.value(let text), _): text
        case (_, .dimensions): "e.g. 600x300"
        case (_, .byteCount): "e.g. 1M or 750k"
        case (.derived(let words), _): words
        case (.none, .textList): "e.g. Home,Feed,Profile"
        case (.none, .dateTime): "e.g. 2025-12-01 or 2025-12-01T09:00"
        case (.none, .period): "e.g. 1d, 12h, 90m, 1w"
        case (.none, _): "e.g. FF3B30,34C759,007AFF"
        }
    }
}
