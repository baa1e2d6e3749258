<#
Patchwell worklet win-firewall-all-profiles: evaluation.
Checks that Windows Defender Firewall is on for the Domain, Private and Public profiles,
as the active policy store reports it (local settings merged with Group Policy).
Changes nothing. Exit 0 = compliant, 1 = needs remediation, 2 = cannot be checked.
#>
$check = {
    try {
        $profiles = Get-NetFirewallProfile -PolicyStore ActiveStore -ErrorAction Stop
    } catch {
        Write-Output "Cannot read the firewall profiles: $($_.Exception.Message)"
        exit 2
    }
    $off = @($profiles | Where-Object { [string]$_.Enabled -ne 'True' } | ForEach-Object { $_.Name })
    if ($off.Count -eq 0) {
        Write-Output 'Compliant: the firewall is on for the Domain, Private and Public profiles.'
        exit 0
    }
    Write-Output "The firewall is off for: $($off -join ', ')."
    exit 1
}

# The agent may run a 32-bit PowerShell on 64-bit Windows; run the check in the 64-bit one.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $check
    exit $LASTEXITCODE
}
& $check
