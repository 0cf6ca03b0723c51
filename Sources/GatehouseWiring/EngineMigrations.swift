import GatehouseAccountsEngine
import GatehouseCommerceEngine
import GatehouseConsoleEngine
import GatehouseCore
import GatehouseDatabase
import GatehouseManagedAPIsEngine
import GatehousePossessionEngine
import GatehouseVerificationEngine
import GatehouseWorkflowsEngine

/// Every engine's migrations in the order they apply: a node migrates with these, and an
/// engine test that needs another engine's tables migrates with them too.
public enum EngineMigrations {
    public static let all: [Migration] =
        CoreMigrations.all + VerificationMigrations.all + AccountsMigrations.all + CommerceMigrations.all + WorkflowsMigrations.all
        + ManagedAPIsMigrations.all + PossessionMigrations.all + ConsoleMigrations.all
}
