<#
Patchwell worklet win-firewall-all-profiles: remediation.
Starts the firewall service and turns the firewall on for the Domain, Private and Public
profiles (Set-NetFirewallProfile). Rules and default actions are kept. A Group Policy that
turns a profile off wins over the local setting; that is reported as a failure.
Exit 0 = on for all profiles, 1 = failed.
#>
$fix = {
    Start-Service -Name mpssvc -ErrorAction SilentlyContinue
    try {
        Set-NetFirewallProfile -Profile Domain, Private, Public -Enabled True -ErrorAction Stop
    } catch {
        Write-Output "Failed: $($_.Exception.Message)"
        exit 1
    }
    $off = @(Get-NetFirewallProfile -PolicyStore ActiveStore | Where-Object { [string]$_.Enabled -ne 'True' } | ForEach-Object { $_.Name })
    if ($off.Count -eq 0) {
        Write-Output 'Remediated: the firewall is on for the Domain, Private and Public profiles.'
        exit 0
    }
    Write-Output "Failed: still off for $($off -join ', '); a Group Policy keeps it off."
    exit 1
}

# The agent may run a 32-bit PowerShell on 64-bit Windows; run the fix in the 64-bit one.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $fix
    exit $LASTEXITCODE
}
& $fix
