/// The names of a lifecycle's transitions, as an enum whose raw values are the names the audit
/// log, the errors and `available_transitions` show (`accept`, `reject_dasher`): code fires a
/// case, so a misspelt transition does not compile. The machines of one resource share one
/// enum (the three order machines), so code that picks a machine by vertical still fires by case.
public protocol TransitionName: RawRepresentable, Hashable, Sendable where RawValue == String {}
