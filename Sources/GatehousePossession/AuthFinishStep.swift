import Foundation

/// The app's step that runs once possession is proved: it sends `authId` to the app's backend, which calls Validate.
public protocol AuthFinishStep {
    /// Called off the main thread with the flow's `authId`; the authentication is over.
    func execute(authId: String)
}

/// The seed's name for `AuthFinishStep` ("Object implementing ProveAuthFinishStep protocols").
public typealias PossessionAuthFinishStep = AuthFinishStep
