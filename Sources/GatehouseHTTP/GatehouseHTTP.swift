/// The GatehouseHTTP module; it fills in with the issue that builds it.
public enum GatehouseHTTPModule {}
