// The environment keys only views read (`colorScheme`, `displayScale`, `layoutDirection`), stored in
// `EnvironmentValues`; their accessors and `@Environment` are in the views (Views/Environment.swift).

import Foundation

/// Light or dark appearance.
public enum ColorScheme: Hashable, Sendable, CaseIterable { case light, dark }

/// The direction text and stacks run in.
public enum LayoutDirection: Hashable, Sendable, CaseIterable { case leftToRight, rightToLeft }

/// The environment keys only views read, kept inside `EnvironmentValues`.
package struct ViewEnvironmentValues: Sendable, Equatable {
    package var colorScheme: ColorScheme = .light
    package var displayScale: CGFloat = 1
    package var layoutDirection: LayoutDirection = .leftToRight
}
