/// The GatehouseClientCore module; it fills in with the issue that builds it.
public enum GatehouseClientCoreModule {}
