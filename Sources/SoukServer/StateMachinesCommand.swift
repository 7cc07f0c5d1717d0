import ArgumentParser

/// `souk-server state-machines`: prints the lifecycle page (Markdown with Mermaid diagrams)
/// rendered from the declarations of the mounted domains (`Domains.lifecyclePage`);
/// `scripts/generate` writes it to Sources/SoukKit/StateMachine/MACHINES.md.
struct StateMachinesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state-machines", abstract: "Print every declared lifecycle as Markdown with Mermaid diagrams.")

    func run() {
        print(Domains.lifecyclePage.markdown, terminator: "")
    }
}
