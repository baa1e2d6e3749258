<#
Patchwell worklet win-smb1-disabled: remediation.
Stops the SMB server from accepting SMB1 (Set-SmbServerConfiguration) and removes the
optional feature SMB1Protocol without restarting; when Windows needs a restart to finish,
that is said in the output and the restart is left to a patch policy or the user.
Exit 0 = SMB1 off (possibly pending a restart), 1 = failed.
#>
$fix = {
    try {
        Set-SmbServerConfiguration -EnableSMB1Protocol $false -Force -Confirm:$false -ErrorAction Stop
    } catch {
        Write-Output "Failed: could not change the SMB server configuration: $($_.Exception.Message)"
        exit 1
    }
    $restart = $false
    $feature = Get-WindowsOptionalFeature -Online -FeatureName SMB1Protocol -ErrorAction SilentlyContinue
    if ($feature -and $feature.State -eq 'Enabled') {
        try {
            $result = Disable-WindowsOptionalFeature -Online -FeatureName SMB1Protocol -NoRestart -ErrorAction Stop
            $restart = [bool]$result.RestartNeeded
        } catch {
            Write-Output "Failed: could not remove the SMB1Protocol feature: $($_.Exception.Message)"
            exit 1
        }
    }
    if ($restart) {
        Write-Output 'Remediated: SMB1 is off; Windows finishes removing it at the next restart.'
    } else {
        Write-Output 'Remediated: SMB1 is off.'
    }
    exit 0
}

# The agent may run a 32-bit PowerShell on 64-bit Windows, where DISM cmdlets refuse to
# service the OS; run the fix in the 64-bit one.
if ([Environment]::Is64BitOperatingSystem -and -not [Environment]::Is64BitProcess) {
    & "$env:SystemRoot\Sysnative\WindowsPowerShell\v1.0\powershell.exe" -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command $fix
    exit $LASTEXITCODE
}
& $fix
