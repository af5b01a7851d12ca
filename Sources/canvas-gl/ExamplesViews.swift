// Examples written with views, in SwiftUI's own idioms: a social card.
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

extension Example {
    /// The social card (ViewSocialCardTests asserts its frames and pixels).
    static let socialCard = Example(
        name: "social-card",
        summary: "a 1200×630 social card as views: gradient, shadowed rounded panel, SF Symbol, two-line title, Markdown, round avatar",
        proposing: CGSize(width: 1200, height: 630), scale: 1
    ) { AnyView(SocialCard(avatar: SocialCard.photo)) }
}
