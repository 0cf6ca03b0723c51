/// Wire types of the Datacove dialect (seed 000: sign-in, sessions, purchases, entitlement),
/// shared by the server's routes and the SDK so both read and write the same JSON.
public enum DatacoveWire {}
