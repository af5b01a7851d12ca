// Examples written with views, in SwiftUI's own idioms: a social card, a bar chart with a legend, an avatar list.
import GPUCanvas

/// A social card (1200 × 630) written as one writes it for iOS (ViewSocialCardTests checks its layout table and
/// pixels on both backends).
struct SocialCard: View {
    let avatar: Image

    var body: some View {
        ZStack {
            LinearGradient(colors: [.indigo, .purple], startPoint: .topLeading, endPoint: .bottomTrailing)
            VStack(alignment: .leading, spacing: 24) {
                HStack(spacing: 16) {
                    Image(systemName: "star.fill")
                        .resizable()
                        .frame(width: 48, height: 48)
                        .foregroundColor(.yellow)
                    Text("GPUCanvas Weekly")
                        .font(.system(size: 28, weight: .semibold))
                        .foregroundColor(.secondary)
                }
                Text("Rendering SwiftUI views on Linux servers, with the same pixels on the GPU and on the CPU")
                    .font(.system(size: 52, weight: .bold))
                    .lineLimit(2)
                    .multilineTextAlignment(.leading)
                Text("**bold** and *italic*")
                    .font(.system(size: 32))
                HStack(spacing: 20) {
                    avatar
                        .resizable()
                        .scaledToFill()
                        .frame(width: 80, height: 80)
                        .clipShape(Circle())
                    Text("Ada Lovelace")
                        .font(.system(size: 30, weight: .medium))
                }
            }
            .padding(48)
            .frame(width: 1040, height: 470, alignment: .topLeading)
            .background(Color.white)
            .cornerRadius(32)
            .shadow(color: .black.opacity(0.3), radius: 24, x: 0, y: 12)
        }
        .frame(width: 1200, height: 630)
    }

    /// A 400 × 300 photo stand-in: orange with a blue square in its middle third.
    static let photo = Image(size: CGSize(width: 400, height: 300), label: Text("avatar")) { context in
        context.fill(Path(CGRect(x: 0, y: 0, width: 400, height: 300)), with: .color(.orange))
        context.fill(Path(CGRect(x: 150, y: 100, width: 100, height: 100)), with: .color(.blue))
    }
}

/// Quarterly sales of three products: grouped bars scaled to the chart's height by a `GeometryReader`, and a
/// legend of `Label`s.
struct SalesChart: View {
    struct Series: Identifiable {
        let id: String
        let color: Color
        let values: [Double]
    }

    let series = [
        Series(id: "Canvas", color: .blue, values: [40, 65, 80, 95]),
        Series(id: "Views", color: .orange, values: [20, 35, 60, 70]),
        Series(id: "Export", color: .green, values: [10, 25, 30, 55]),
    ]

    var body: some View {
        VStack(alignment: .leading, spacing: 12) {
            Text("Quarterly sales").font(.headline)
            GeometryReader { proxy in
                HStack(alignment: .bottom, spacing: 16) {
                    ForEach(0..<4) { quarter in
                        HStack(alignment: .bottom, spacing: 3) {
                            ForEach(series) { s in
                                RoundedRectangle(cornerRadius: 3)
                                    .fill(s.color)
                                    .frame(height: proxy.size.height * s.values[quarter] / 100)
                            }
                        }
                    }
                }
            }
            .frame(height: 160)
            Divider()
            HStack(spacing: 16) {
                ForEach(series) { s in
                    Label {
                        Text(s.id).font(.caption)
                    } icon: {
                        Circle().fill(s.color).frame(width: 10, height: 10)
                    }
                }
            }
        }
        .padding()
        .frame(width: 360)
        .background(Color.white)
    }
}

/// A list of people: initials in coloured circles, a name and a status, a chevron, dividers between rows.
struct AvatarList: View {
    let people: [(name: String, color: Color)] = [("Ada Lovelace", .purple), ("Grace Hopper", .teal), ("Alan Turing", .orange)]

    var body: some View {
        VStack(alignment: .leading, spacing: 0) {
            ForEach(people, id: \.name) { person in
                HStack(spacing: 12) {
                    Circle()
                        .fill(person.color)
                        .frame(width: 40, height: 40)
                        .overlay(
                            Text(person.name.split(separator: " ").compactMap(\.first).map(String.init).joined())
                                .font(.system(size: 16, weight: .semibold))
                                .foregroundColor(.white)
                        )
                    VStack(alignment: .leading, spacing: 2) {
                        Text(person.name).font(.body)
                        Text("Online").font(.caption).foregroundColor(.secondary)
                    }
                    .layoutPriority(1)
                    Spacer()
                    Image(systemName: "chevron.right").foregroundColor(.gray)
                }
                .padding(.vertical, 8)
                Divider()
            }
        }
        .padding()
        .frame(width: 320)
        .background(Color.white)
    }
}

extension Example {
    /// The sales chart with its legend.
    static let chartLegend = Example(
        name: "chart-legend", summary: "a grouped bar chart (GeometryReader, ForEach) with a legend of Labels, as views",
        proposing: CGSize(width: 360, height: 300), scale: 2
    ) { AnyView(SalesChart()) }

    /// The avatar list.
    static let avatarList = Example(
        name: "avatar-list", summary: "a list of people: initials in circles, names, status, chevrons and dividers, as views",
        proposing: CGSize(width: 320, height: 300), scale: 2
    ) { AnyView(AvatarList()) }

    /// The social card (ViewSocialCardTests asserts its frames and pixels).
    static let socialCard = Example(
        name: "social-card",
        summary: "a 1200×630 social card as views: gradient, shadowed rounded panel, SF Symbol, two-line title, Markdown, round avatar",
        proposing: CGSize(width: 1200, height: 630), scale: 1
    ) { AnyView(SocialCard(avatar: SocialCard.photo)) }
}
